"""Finding a table on the LAN: the mDNS/DNS-SD record a host advertises (RFC 6762, 6763).

A host asked to (``--lan``) registers one service of type :data:`SERVICE_TYPE` under the
table's (or club's) name, at the address and port it listens on (the wire protocol's TCP port), with
these TXT fields, all text (``server.lan`` writes them, ``client.lan`` reads them):

============  ====================================================================
``txtvers``   this list's version: :data:`TXT_VERSION`
``game``      the ruleset's name (``hex``, ``downtown``)
``seats``     seats free for a new player: the lobby's empty seats, 0 once the game started
``players``   seats at the table
``phase``     ``lobby``, ``playing`` or ``finished``
``code``      ``yes``: a join code is required, else ``no``
``proto``     :data:`protocol.messages.PROTOCOL_VERSION`
``ssh``       the host's SSH gateway's port (only while it serves one)
``club``      ``yes``: the host is a club of many tables (``waddle serve --club``)
``tables``    a club's tables open now
============  ====================================================================

A club's record has ``txtvers``, ``club``, ``tables``, ``proto`` and ``ssh``; the fields of
one table (``game``, ``seats``, ``players``, ``phase``, ``code``) are each table's there,
and left out.

A reader takes every field as untrusted text from the network (clean it, bound it) and
ignores fields it does not know. Multicast stays on one network segment: it does not
cross routers or VPNs, where ``HOST:PORT`` is given by hand.
"""

#: The DNS-SD service type of a Waddle table.
SERVICE_TYPE = "_waddle._tcp.local."
#: The version of the TXT fields' list (``txtvers``).
TXT_VERSION = "1"
