"""The jobs behind build.py, one module each; build.py is only their command line.

    project.py         the project's folders, BuildError, how a step logs and runs commands, and
                       how a file shared with a build running beside it is replaced whole
    vendor_pyodide.py  the Pyodide pin (package.json), npm ci, the official lock, the wheels
    pelab_wheel.py     py/pelab as a reproducible wheel
    course.py          the course model: index.html and lesson/*.html read once, into typed
                       chapters, sections, controls, questions, exercises; the only reader
    section_source.py    one lesson/NAME.html read and checked into the model's objects
    quiz_source.py       its quiz questions and their graded versions, read and checked
    lesson.py          the course's pages (entrance, a page per chapter) written from the model
    quiz_forms.py        the quiz as the pages show it: questions without their keys, the
                         tests' forms with their graded versions, the sealed keys file
    minutes.py           how long a section takes (its words, controls, runs, questions)
    custom_lesson.py     a lesson of chosen sections (build.py packages --sections)
    heatmap_settings.py  the first heatmap's settings, read from the heatmap section's sliders
    page_protocol.py   the host messages and performance marks of app/page-protocol.js, for Python
    demo_lists.py      which demos are not live, need no Python or are pictured, from app/demos/
    computed.py        the numbers pelab computes that the lesson quotes (app/computed.js)
    in_pyodide.py      build-time jobs (jobs/*.py) run in Pyodide under Node (pyodide-job.mjs)
    site.py            dist/, built in named steps (incrementally for serve): the pages, app/
    dist_files.py        each file written only when changed, and the rest pruned
    bundles.py           app/'s esbuild bundles (bundle.mjs)
    served_pyodide.py    dist/pyodide/<pin>-<hash>/, the served lock, stored zips; check
    python_files.py      dist/py/: pelab's wheel and the build-time jobs' outputs
    generated_scripts.py start-python.js's first files, config.js, the service worker
    packages.py        build.py packages: SCORM packages into packages/, beside dist/
    scorm.py           the SCORM 1.2 packages made from dist/ (course, chapters, demos, per
                       language; the thin one; a lesson of chosen sections)
    teacher_kit.py     teaching.html, answer-key.html, report.html, scorm/packages.json: teachers
    compress.py        the precompressed .br/.gz siblings of dist/'s files (compress.mjs: zlib)
    server.py          the development server: MIME types, COOP/COEP, CSP, the .br/.gz
                       siblings; serve's rebuild on every change of a source
    environment.py     .venv from requirements-dev.txt, and Debian's Chromium
    suites.py          the test suite and the benchmark, against a fresh build

Standard library only, like build.py.
"""
