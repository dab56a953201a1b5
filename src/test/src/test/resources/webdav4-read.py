"""webdav4 (PyPI) as a grid client: list a collection and read one file over HTTPS, presenting an RFC 3820 proxy.

Usage: webdav4-read.py URL CA_FILE PROXY_PEM NAME OUT

webdav4 hands its keyword arguments to httpx. httpx 0.28 takes the client certificate only from an ssl.SSLContext
given as verify=: its deprecated cert= is dropped when verify= is a path, and then no certificate is sent. The proxy
file holds the proxy, its key and the user certificate, and load_cert_chain sends all of them, so the server gets
the whole chain. The read follows the door's redirect to the pool, which this context also trusts.
"""
import ssl
import sys

from webdav4.client import Client


def main(url, ca_file, proxy, name, out):
    context = ssl.create_default_context(cafile=ca_file)
    context.load_cert_chain(proxy)
    client = Client(url, verify=context)
    names = [entry["name"].rstrip("/").rsplit("/", 1)[-1] for entry in client.ls("/", detail=True)]
    print("listed: " + " ".join(sorted(names)))
    if name not in names:
        print(f"{name} is not in the listing of {url}", file=sys.stderr)
        return 1
    client.download_file(name, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
