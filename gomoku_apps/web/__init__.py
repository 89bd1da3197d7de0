"""Play and watch Gomoku in a browser: the ``gomoku serve`` web server and its page.

The server (Starlette on uvicorn, the ``web`` extra) holds the games; the page
(plain HTML, CSS and JavaScript in ``static/``, no build step and nothing fetched from
elsewhere) draws them and sends commands over a websocket. Each agent runs in its own
process (:mod:`gomoku_apps.web.agent_process`), so searches never block the server and
a failing agent ends only its own game. See docs/web.md.
"""
