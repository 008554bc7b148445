"""``relx serve``: a local reading service over HTTP (see docs/serve.md).

:mod:`relx.app.serve.service`: requests, extraction and output formats, apart from HTTP;
:mod:`relx.app.serve.http`: the Tornado server (routes, limits, queue, token, workers).
Nothing is imported here, so ``relx --help`` does not load the web server.
"""
