"""The SSH host key: made on first use, kept private, reused.

The key is an Ed25519 key in OpenSSH's private key format at :func:`default_path`
(``$XDG_DATA_HOME/waddle/ssh_host_ed25519_key``, else
``~/.local/share/waddle/ssh_host_ed25519_key``): the folder is made readable by its
owner only and the file is created mode 0600 (never replaced: two hosts starting at once
both read the one that was made first). A key file others may read, or one that is not
a key, is refused naming the file and the problem: guests check the key's fingerprint, so
a host never silently makes a new one in its place.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from server.ssh.library import asyncssh

#: The largest key file read, in bytes (an Ed25519 key takes about 400).
MAX_BYTES = 64 * 1024


def default_path() -> Path:
    """``$XDG_DATA_HOME/waddle/ssh_host_ed25519_key``, else ``~/.local/share/waddle/...``."""
    data = os.environ.get("XDG_DATA_HOME")
    base = Path(data) if data and os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "waddle" / "ssh_host_ed25519_key"


def host_key(path: str | Path | None = None) -> asyncssh.SSHKey:
    """The host key at ``path`` (default :func:`default_path`), made there if missing.

    Raises:
        ValueError: the file may be read by others than its owner, is not a regular
            file, is too large, or holds no usable private key (naming the file).
        OSError: the folder or the file cannot be made or read.
    """
    path = Path(path) if path is not None else default_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.exists():
        return _read(path)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="waddle host key")
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
            file.flush()
            os.fsync(file.fileno())
        os.link(temporary, path)  # whole or not at all: a host starting beside never reads half a key
    except FileExistsError:
        return _read(path)  # another host made it first: theirs is the key
    finally:
        os.unlink(temporary)
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's SHA-256 fingerprint as OpenSSH shows it, e.g. ``"SHA256:3q2+7w..."``."""
    return key.get_fingerprint("sha256")


def _read(path: Path) -> asyncssh.SSHKey:
    with open(path, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path}: the SSH host key is not a regular file")
        if info.st_mode & 0o077:
            raise ValueError(f"{path}: the SSH host key may be read by others (mode "
                             f"{stat.S_IMODE(info.st_mode):04o}); make it private: chmod 600 {path}")
        data = file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path}: the SSH host key file is over {MAX_BYTES} bytes")
    try:
        return asyncssh.import_private_key(data)
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise ValueError(f"{path}: not an SSH private key ({exc}); move it away to make a new one") from None
