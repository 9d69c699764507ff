"""The jobs behind build.py, one module each; build.py is only their command line.

    project.py         the project's folders, BuildError, and how a step logs and runs commands
    vendor_pyodide.py  the Pyodide pin (package.json), npm ci, the official lock, the wheels
    pelab_wheel.py     py/pelab as a reproducible wheel
    lesson.py          dist/index.html, assembled from the skeleton index.html and lesson/*.html
    heatmap_settings.py  the first heatmap's settings, read from the heatmap section's sliders
    exercises.py       the exercises' starters and worked solutions, read from their sources
    page_protocol.py   the host messages and performance marks of app/page-protocol.js, for Python
    demo_lists.py      which demos are not live, need no Python or are pictured, from app/demos/
    in_pyodide.py      build-time jobs (jobs/*.py) run in Pyodide under Node (pyodide-job.mjs)
    site.py            dist/: copies, esbuild bundles (bundle.mjs), config.js, the service
                       worker; check
    scorm.py           dist/scorm/: the SCORM 1.2 packages made from dist/ (course, chapters,
                       demos; the thin one; custom/'s lesson of chosen sections)
    teacher_kit.py     teaching.html, answer-key.html and scorm/packages.json, for teachers
    compress.py        the precompressed .br/.gz siblings of dist/'s files (compress.mjs: zlib)
    server.py          the development server: MIME types, COOP/COEP, CSP, the .br/.gz siblings
    environment.py     .venv from requirements-dev.txt, and Debian's Chromium
    suites.py          the test suite and the benchmark, against a fresh build

Standard library only, like build.py.
"""
