"""The SSH gateway: guests play with a plain ``ssh`` client (``--ssh PORT``, docs/ssh.md).

asyncssh runs the SSH side on an asyncio loop in a thread of its own (:mod:`.gate`); each
guest's session runs the terminal UI as a child process in a pseudo-terminal
(:mod:`.session`), whose protocol connection reaches the host's trio loop as any other
client's does, through :mod:`.bridge`, from the guest's own address. The host key is kept
by :mod:`.keys`; who may come in is decided by :mod:`.admission`.
"""

from server.ssh.bridge import SshConfig, run_gateway

__all__ = ["SshConfig", "run_gateway"]
