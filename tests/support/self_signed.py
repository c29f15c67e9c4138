"""An https server on 127.0.0.1 whose certificate is self-signed: what a model server set up
with `openssl req -x509` looks like to a client that checks certificates.

The key and certificate are made for each server (cryptography, which the MCP SDK brings
with PyJWT's `crypto` extra), valid for 127.0.0.1 and `localhost`, and trusted by nothing,
so a client that checks the certificate against the system's trust store refuses it in the
handshake. Any request that gets through is answered 200 with `{}`.
"""

from __future__ import annotations

import contextlib
import datetime
import ssl
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from ipaddress import IPv4Address
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def write_self_signed(folder: Path) -> tuple[Path, Path]:
    """A fresh key and a self-signed certificate for 127.0.0.1 in `folder`: (cert, key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "memtab test model server")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(IPv4Address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        body = b"{}"
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a refused handshake is what the tests expect."""

    def handle(self) -> None:
        # the client refused the certificate and hung up: expected
        with contextlib.suppress(ssl.SSLError, ConnectionError):
            super().handle()


class _TlsServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, context: ssl.SSLContext) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self._context = context

    def get_request(self) -> tuple[Any, Any]:
        connection, address = super().get_request()
        # The handshake happens in the handler's thread, so a refused one blocks nothing.
        return self._context.wrap_socket(
            connection, server_side=True, do_handshake_on_connect=False
        ), address

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: a client that refuses the certificate is what the tests expect."""


@contextmanager
def self_signed_https_server() -> Iterator[str]:
    """Serve https on 127.0.0.1 with a self-signed certificate; yields the base URL."""
    with tempfile.TemporaryDirectory(prefix="memtab-tls-") as folder:
        cert, key = write_self_signed(Path(folder))
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
    server = _TlsServer(context)
    thread = threading.Thread(target=server.serve_forever, name="self-signed-https", daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
