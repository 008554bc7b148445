"""``relx serve``: a local reading service over HTTP (see docs/serve.md).

:mod:`relx.app.serve.service`: requests, extraction and output formats, apart from HTTP
(:mod:`relx.app.serve.options`: the per-request options); :mod:`relx.app.serve.http`: the
FastAPI application (routes, token, body limit, queue); :mod:`relx.app.serve.jobs`: the
background jobs every worker answers for; :mod:`relx.app.serve.workers`: the processes
(load once, fork, uvicorn, drain). Nothing is imported here, so ``relx --help`` does not
load the web server.
"""
