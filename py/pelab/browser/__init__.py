"""
# The browser runtime: what the lesson's Web Worker runs

    entry_points  `call(name, kwargs)`, the worker's one door to the demos, and `ENTRY_POINTS`,
                  assembled from `demos/`
    demos/        one module of entry points per demo, mirroring app/demos/NAME.js
    plain         what an entry point may return (plain data), checked by `call`
    limits        the limits several demos share
    sessions      the models the page trains in slices, kept between calls
    notebook      the lesson's code cells: a `Notebook` runs them in one shared namespace, and
                  `show(matrix)` draws a matrix on the page as a heatmap
    display       where a running cell's figures and heatmaps go
    mpl_backend   the matplotlib backend a Notebook selects: `plt.show()` sends figures to the
                  page (imported only once the learner imports matplotlib)
    png           RGBA pixels as a PNG file, without Pillow (build.py pre-renders with it)
    computed      what pelab computes that the page quotes (the lesson's prose, a demo's code),
                  written out as app/computed.js
    quiz_variants  the graded test's numeric templates: each one's variants and answers,
                   written out as lesson/quiz-variants.json

Everything here runs under CPython too, and is tested there.
"""
