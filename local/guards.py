"""Which requests the local runtime answers at all, before anything else runs.

Only the runtime's own pages and tools are its clients (docs/SECURITY.md, "The local runtime
and the pages a developer opens"). ``misdirected`` answers 421 a request whose ``Host`` is none
of the names the runtime listens as (``Names``: a DNS-rebinding page names its own domain), 400
one naming no Host or two; ``dev_refused`` keeps ``/dev/*`` from other sites' pages: another
``Origin`` is 403, and a body but JSON 415 (a cross-site "simple" request can send nothing
else), while one with neither body nor type, a script's ``POST /dev/sweep``, passes.
"""

from __future__ import annotations

import ipaddress
from email.message import Message
from urllib.parse import SplitResult

from local.bodies import Refuse

#: the names the runtime answers as (with its port or none), besides the address it listens on
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})
SAFE_METHODS = frozenset({"GET", "HEAD"})


def split_authority(value: str) -> tuple[str, int | None]:
    """``host[:port]`` (a Host header, an Origin's authority) as its lower-cased name (an IPv6
    address in brackets) and port; ValueError when it is neither."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]") + 1
        if end == 0:
            raise ValueError(value)
        name, rest = value[:end], value[end:]
        if rest and not rest.startswith(":"):
            raise ValueError(value)
        port = rest[1:] if rest else None
    else:
        name, colon, port_text = value.partition(":")
        port = port_text if colon else None
    if not name or (port is not None and not (port.isascii() and port.isdigit() and port)):
        raise ValueError(value)
    return name, None if port is None else int(port)


def is_ip_literal(name: str) -> bool:
    """An IPv4 address, or an IPv6 one in brackets, as a Host names it."""
    bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    if ":" in bare and bare == name:
        return False
    try:
        ipaddress.ip_address(bare)
    except ValueError:
        return False
    return True


class Names:
    """The names a runtime listening on ``listen`` and ``port`` answers as."""

    def __init__(self, listen: str, port: int) -> None:
        self.port = port
        listen = listen.lower()
        #: a wildcard address is reached by any of the machine's addresses: any IP literal
        #: is answered then (a rebinding page names a domain), never another name
        self.any_ip = listen in WILDCARDS
        named = f"[{listen}]" if ":" in listen and not listen.startswith("[") else listen
        self.host_names = LOOPBACK_NAMES | (set() if self.any_ip else {named})

    def answers_as(self, name: str, port: int | None) -> bool:
        """True for a name the runtime listens as, with its port or (a Host) none."""
        if port is not None and port != self.port:
            return False
        return name in self.host_names or (self.any_ip and is_ip_literal(name))

    def host_allowed(self, value: str) -> bool:
        try:
            return self.answers_as(*split_authority(value))
        except ValueError:
            return False

    def origin_allowed(self, origin: str) -> bool:
        """An ``Origin`` of a page this runtime served: ``http://`` one of its names and port."""
        scheme, _, authority = origin.strip().partition("://")
        if scheme.lower() != "http" or not authority or "/" in authority:
            return False
        try:
            name, port = split_authority(authority)
        except ValueError:
            return False
        return self.answers_as(name, 80 if port is None else port)


def misdirected(
    names: Names, headers: Message, split: SplitResult, version: str, refuse: Refuse
) -> bool:
    """Refuse a request for another host than this runtime (421) or naming none or two
    (400): a page of another domain rebound to 127.0.0.1 names its own. An HTTP/1.0
    request may name none (RFC 9112, 3.2)."""
    hosts = headers.get_all("Host") or []
    if split.netloc:  # an absolute target's authority is the request's host
        hosts = [split.netloc] if split.scheme.lower() == "http" else ["-"]
    if not hosts and version == "HTTP/1.0":
        return False
    if len(hosts) != 1:
        refuse(400, "invalid_request", "The request must name one Host.")
        return True
    if not names.host_allowed(hosts[0]):
        refuse(421, "invalid_request", "This runtime does not answer for that Host.")
        return True
    return False


def dev_refused(names: Names, headers: Message, method: str, refuse: Refuse) -> bool:
    """``/dev/*`` answers no page of another origin (403) and takes no body but JSON (415):
    a cross-site form or ``fetch`` without a preflight can send neither."""
    origins = headers.get_all("Origin") or []
    if origins and (len(origins) > 1 or not names.origin_allowed(origins[0])):
        refuse(403, "invalid_request", "Dev routes answer only this runtime's pages.")
        return True
    types = headers.get_all("Content-Type") or []
    media = types[0].split(";", 1)[0].strip().lower() if len(types) == 1 else ""
    # a request that sends nothing at all (`POST /dev/sweep` from a script): no body, no
    # type; a browser's cross-site one would carry an Origin, refused above
    bodiless = not types and headers.get("Content-Length", "0").strip() == "0"
    bodiless = bodiless and "Transfer-Encoding" not in headers
    if method not in SAFE_METHODS and media != "application/json" and not bodiless:
        refuse(415, "invalid_request", "Dev routes take only Content-Type application/json.")
        return True
    return False
