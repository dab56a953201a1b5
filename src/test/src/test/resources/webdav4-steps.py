"""webdav4 (PyPI) as a writing client: one step of the clients x steps matrix against a WebDAV server.

Usage: [CA_FILE=ca.pem PROXY=proxy.pem] webdav4-steps.py URL STEP [ARGS...]
  ls                  print the names in the root collection
  get REMOTE LOCAL    download
  mkcol REMOTE        make a collection
  put LOCAL REMOTE    upload
  move FROM TO        move
  delete REMOTE       delete a file
  rmcol REMOTE        delete a collection

Over HTTPS, CA_FILE and PROXY make an ssl.SSLContext that trusts the CA and presents the proxy chain (httpx takes a
client certificate only that way, see webdav4-read.py).
"""
import os
import ssl
import sys

from webdav4.client import Client


def main(url, step, *args):
    if os.environ.get("PROXY"):
        context = ssl.create_default_context(cafile=os.environ["CA_FILE"])
        context.load_cert_chain(os.environ["PROXY"])
        client = Client(url, verify=context)
    else:
        client = Client(url)
    if step == "ls":
        for entry in client.ls("/", detail=True):
            print(entry["name"].rstrip("/").rsplit("/", 1)[-1])
    elif step == "get":
        client.download_file(args[0], args[1])
    elif step == "mkcol":
        client.mkdir(args[0])
    elif step == "put":
        client.upload_file(args[0], args[1])
    elif step == "move":
        client.move(args[0], args[1])
    elif step in ("delete", "rmcol"):
        client.remove(args[0])
    else:
        print("unknown step " + step, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
