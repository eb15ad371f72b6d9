"""The web page of a live game (issue 13): the arbiter's view with its controls, the players'
clock face and the teaching view, served from the game's own process.

- `hub`: fan-out of JSON messages to many Server-Sent-Events clients (thread-safe publish).
- `server`: a Starlette app on uvicorn in a background thread; `[HOST:]PORT` parsing.
- `feed`: the session sink that turns typed rulings into the page's JSON.
- `app`: the routes of one game's page, its controls behind a token.
- `live`: starting and stopping the page beside a `Session`.
- `static/`: the page itself (HTML, CSS, one script), no CDN.

Nothing here is imported unless a page is served: `arbiter --help` stays fast.
"""
