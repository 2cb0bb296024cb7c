"""asyncssh, imported here and nowhere else, without the warnings it makes its users see.

Every release of ``cryptography`` deprecates something asyncssh still names at import time
(DSA in cryptography 51: ten lines of ``CryptographyDeprecationWarning`` from
``asyncssh/crypto/dsa.py`` and ``misc.py`` on every ``waddle ... --ssh``; before it
Blowfish, CAST5, TripleDES: asyncssh issues 473, 674 and 826). They are the library's
business, not the player's: this module ignores exactly that category, raised from
asyncssh's own modules, and nothing else (a warning of ours, or one of cryptography's
raised from another module, still shows). The filter stays for the process's life, since
asyncssh also touches deprecated names lazily (an old key type read, say).

Import asyncssh as ``from server.ssh.library import asyncssh``; a test
(``tests/test_quiet_commands.py``) starts every ``waddle`` command and reads its stderr.
"""

from __future__ import annotations

import warnings

from cryptography.utils import CryptographyDeprecationWarning

#: The modules whose ``CryptographyDeprecationWarning`` are ignored (a regular expression,
#: matched from the start of the module a warning is raised in).
QUIET_MODULES = r"asyncssh(\.|$)"

warnings.filterwarnings("ignore", category=CryptographyDeprecationWarning, module=QUIET_MODULES)

import asyncssh  # noqa: E402  (after the filter, on purpose)

__all__ = ["asyncssh", "QUIET_MODULES"]
