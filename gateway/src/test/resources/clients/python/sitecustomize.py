# Loaded by the Python clients the gateway tests run (PYTHONPATH points here): resolves every *.localhost name to
# 127.0.0.1, as systemd-resolved does, so virtual-hosted-style requests (bucket.s3.localhost) reach the test gateway
# on systems whose resolver only knows /etc/hosts.
import socket

_system_getaddrinfo = socket.getaddrinfo


def _getaddrinfo(host, *args, **kwargs):
    if isinstance(host, str) and (host == "localhost" or host.endswith(".localhost")):
        host = "127.0.0.1"
    return _system_getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _getaddrinfo
