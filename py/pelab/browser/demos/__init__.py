"""
# One module of entry points per demo

`NAME.py` holds the entry points of the demo `app/demos/NAME.js` (tested in the browser by
`tests/browser/test_NAME_demo.py`, and under CPython by
`tests/python/browser/demos/test_NAME_entry.py`): functions that take the page's keyword
arguments and return plain data (`pelab.browser.plain`), its own limits, and `ENTRY_POINTS`, a
dict of its entry points by name.
`pelab.browser.entry_points` finds every module here and assembles the table the worker calls.
"""
