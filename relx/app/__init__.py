"""The application layer: the ``relx`` command line (:mod:`relx.app.cli`) and batch runs
over files, processes and Dask clusters (:mod:`relx.app.batch`), on top of the two tasks
(:mod:`relx.ppi`, :mod:`relx.ge`) and the shared core."""
