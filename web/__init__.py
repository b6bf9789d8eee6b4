"""``pagadores_web``: play, watch and replay every game in the browser (``pagadores serve``;
the ``web`` extra). The games run on the server, on their engines; the page is plain HTML,
JavaScript modules, CSS and SVG (``static/``: ``app.js`` for every game, one module per game
under ``static/games/`` drawing its view), with no build step.

================  ============================================================================
module            holds
================  ============================================================================
``app``           the Starlette app and its JSON API (the routes are listed there)
``guard``         the middleware every request passes: token, Host, Origin, body size, headers
``sessions``      the live games: play and watch, the agents' moves one at a time, the cap
``catalog``       what the page chooses from by id: opponents, runs, saved games, run records
``hints``         the exact win probability of each choice, where the solution is at hand
``serve``         binding the port and running uvicorn (``pagadores serve``)
``browser``       headless Chromium for the tests and ``make screenshot`` (Selenium)
================  ============================================================================

It sits above ``pagadores_train`` (it reads run folders) and below ``pagadores_cli``.
"""
