"""`fairyforge studio`: a local web application to write, play and compare variants.

    fairyforge studio            # serves http://127.0.0.1:8765/ and opens the browser

The server (Starlette on uvicorn) binds to the loopback address unless told
otherwise and reads and writes only inside the folder it was started in
(see workspace.py).  It needs the `studio` extra: pip install "fairyforge[studio]".
"""

import os
import sys
import threading
import webbrowser

DEFAULT_PORT = 8765


def serve(root=None, host="127.0.0.1", port=DEFAULT_PORT, open_browser=True):
    """Run the studio until interrupted."""
    try:
        import uvicorn
    except ImportError:
        print('fairyforge studio: needs the studio extra: pip install "fairyforge[studio]"',
              file=sys.stderr)
        return 2
    from .app import create_app
    root = os.path.realpath(root or os.getcwd())
    app = create_app(root)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"fairyforge studio: warning: listening on {host}: anyone who can reach this "
              "machine can read and write definitions in this folder", file=sys.stderr)
    print(f"fairyforge studio: {url} (folder {root}); Ctrl-C stops it", file=sys.stderr)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    uvicorn.Server(config).run()
    return 0
