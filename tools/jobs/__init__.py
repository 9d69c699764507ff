"""Build-time jobs run in Pyodide by tools/pyodide-job.mjs: each file defines
main(**arguments) -> bytes, and takes its settings as arguments, never pasted into source."""
