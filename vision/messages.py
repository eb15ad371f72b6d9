"""What the camera's calibration and geometry say to a user, as templates of `ArbiterError.of`.

`vision` has no catalogue of its own and imports nothing of `arbiter`: the `arbiter` command
says these templates in the user's language, its catalogue marking the same English again
(`arbiter/i18n.py` VISION_ERRORS and VISION_WORDS; tests/i18n checks the lists agree). The
words inside them (a corner's name, what a square was read as) are `rules.i18n.Word`s, said
in the language with the message. Option names (`--corners`, `--white-at`), the values of
`--white-at` (`bottom`, `left`, ...) and `"x,y"` stay as typed.
"""

from __future__ import annotations

from rules.i18n import Word

# ------------------------------------------------------------------- corners (geometry, pick)
CORNERS_NOT_PAIRS = 'corners {text!r} must be four "x,y" pairs separated by spaces'
CORNERS_NOT_FOUR = 'corners {text!r} must be exactly four "x,y" pairs'
CORNERS_COUNT = "need 4 corners (TL, TR, BR, BL), got {count}"
CORNERS_NOT_CONVEX = (
    "corners {corners} are not a convex quadrilateral in the order "
    "top-left, top-right, bottom-right, bottom-left"
)
CORNER_OFF_PICTURE = (
    "the {name} corner ({x:g}, {y:g}) is off the picture ({width}x{height}): "
    "give the corners of this picture"
)
WHITE_AT_UNKNOWN = "white_at must be one of {sides}, not {white_at!r}"
#: the corners' names, in the order the corners are given
CORNER_NAMES = (
    Word("top-left"),
    Word("top-right"),
    Word("bottom-right"),
    Word("bottom-left"),
)
PICKER_PORT = (
    "cannot serve the corner picker on {host}:{port} ({reason}): "
    "choose another --port, or give --corners"
)
PICKER_TIMEOUT = (
    "no corners were clicked within {seconds:g} s: run again with --pick, or give them with "
    '--corners "x,y x,y x,y x,y"'
)
PICKER_STOPPED = (
    "corner picking stopped (Ctrl-C) before four corners were sent: run again with "
    '--pick, or give them with --corners "x,y x,y x,y x,y"'
)
PICKER_NO_CORNERS = "the corner picker stopped without corners"
PICKER_NO_JPEG = "the frame could not be encoded as JPEG for the corner picker"
#: the picker page's own words (`vision.pick.page`), in the command's language: its title,
#: buttons, help line and prompts (the corners' names are `CORNER_NAMES`)
PICK_PAGE = {
    "title": "OTB Arbiter: click the board's corners",
    "undo": "Undo",
    "reset": "Start again",
    "send": "Send corners",
    "help": (
        "Click the corners of the 8x8 playing area (not the board's frame), as seen in the"
        " picture: {corners}."
    ),
    "next": "next: {corner} corner",
    "four": "four corners: send them, or undo",
    "noPicture": "the picture could not be loaded",
    "notSent": "could not send: {error}",
}
#: the picker page's answers to the browser (`vision.pick`), in the command's language
PICK_SEND_JSON = 'send JSON: {{"corners": [[x, y], [x, y], [x, y], [x, y]]}}'
PICK_FOUR = "click exactly four corners (top-left, top-right, bottom-right, bottom-left)"
PICK_CORNER_XY = "a corner must be [x, y] in pixels, not {value}"
PICK_FAR = "corner ({x:g}, {y:g}) is far outside the picture"
PICK_SAME_POINT = "two corners are (almost) the same point: undo and click again"
PICK_NOT_CONVEX = (
    "the four corners do not make a convex quadrilateral: start again and click the "
    "playing area's top-left, top-right, bottom-right and bottom-left corners"
)
PICK_NOT_JSON_TYPE = "send the corners as application/json, from the picker's own page"
PICK_WRONG_HOST = "the page must be opened by this machine's address, not {host!r}"
PICK_NO_HOST = "the page must be opened by this machine's address; the request names none"
PICK_OTHER_SITE = "a request from another site ({origin}) is refused"
PICK_NO_PAGE = "no such page: {path}"
PICK_ALREADY = "corners were already received"
PICK_NO_LENGTH = "the request has no Content-Length"
PICK_BODY_SIZE = "the request body must be 1 to {most} bytes"
PICK_RECEIVED = (
    "corners received: calibration goes on in the terminal; you may close this page"
)

# --------------------------------------------------------------------- calibration (calibrate)
NO_BOARD_FOUND = (
    "no chessboard found in the picture: give the four corners of the playing area "
    '(--corners "x,y x,y x,y x,y", image top-left, top-right, bottom-right, bottom-left) '
    "or click them in a browser (--pick)"
)
NOT_COLOUR = "calibration needs a colour frame (H x W x 3)"
POSITION_UNKNOWN_SQUARE = "the calibration position must say every square: no '?'"
SYMMETRIC_POSITION = "position {placement!r} looks the same from several sides: give --white-at"
NO_EMPTY_BOTH_COLOURS = (
    "the calibration position needs empty squares of both colours to measure the light"
)
WHITE_LOOKS_DARKER = (
    "with White at the {white_at}, White's pieces look darker than Black's: "
    "is White at the {opposite}? (--white-at)"
)
QUARTER_TURN_GIVEN = (
    "with White at the {white_at}, the corner squares at the players' right are dark: "
    "the corners or --white-at are a quarter turn off (White at the {one} or {other}?); "
    "corners go top-left, top-right, bottom-right, bottom-left of the picture"
)
BOARD_QUARTER_TURN = (
    "the board stands a quarter turn off: each player must have a light square at the "
    "right-hand corner (FIDE Art. 2.1); turn the board and set the pieces up again"
)
MISREAD = (
    "the calibration misreads its own photo on {count} square(s): {squares}. Check the "
    "position given (--fen) and that no hand or shadow is on the board, then take the photo "
    "again (more even light), or keep it anyway with --accept-misread"
)
MISREAD_SQUARE = "{square} read as {read}, not {told}"
#: what a square holds, as the calibration's self-check names it (`.`, `X`, `x`)
SQUARE_STATES = {".": Word("empty"), "X": Word("a white piece"), "x": Word("a black piece")}
TOO_SMALL = (
    "the picture is {width}x{height} pixels: too small to find a board in (at least {least} "
    "on each side; a camera's 640x480 or more is what calibration needs)"
)
EMPTY_OTHER_SIZE = (
    "--empty {path}: the picture is {width}x{height}, the calibration frame "
    "{cal_width}x{cal_height}: take both with the same camera at the same size"
)
SOURCE_NO_FRAME = "the source gave no frame"
VIDEO_NO_FRAME = "{path}: the video gave no frame"
#: a calibration position without one of the three looks (`vision.model.fit`), by the look
NOTHING_TO_LEARN = (
    "the calibration position has no empty square to learn from; use a position with white "
    "and black pieces and empty squares",
    "the calibration position has no white piece to learn from; use a position with white "
    "and black pieces and empty squares",
    "the calibration position has no black piece to learn from; use a position with white "
    "and black pieces and empty squares",
)
#: a calibration file whose square model or reference picture is damaged
MODEL_LACKS = "the square model lacks {field}"
MODEL_UNREADABLE = "the calibration's square model cannot be read"
REFERENCE_NOT_BASE64 = "the calibration's reference image is not base64"
REFERENCE_NOT_PNG = "the calibration's reference image is not a PNG"

# ------------------------------------------------------------ a picture read with a calibration
HAND_OVER_BOARD = (
    "a hand or arm is over the board: something crossing its edge hides {count} squares "
    "({squares}). Take the picture again with nothing over the board (a shadow moving across "
    "it looks the same)"
)
CORNERS_QUARTER_TURN = (
    "with these corners the squares at the players' right are dark: they are a quarter turn "
    "off; give the picture's top-left, top-right, bottom-right, bottom-left corners of the "
    "playing area"
)
OTHER_SIZE_NO_BOARD = (
    "the picture is {width}x{height}, the calibration's {cal_width}x{cal_height}, and no board "
    "was found in it: give --corners"
)
FOUND_QUARTER_TURN = (
    "the board found in this picture stands a quarter turn from the calibration's: give --corners"
)
FOUND_OTHER_BOARD = (
    "the board found in this picture does not look like the calibration's (another board or "
    "camera?): give --corners, or calibrate on it"
)
NO_REFERENCE = "the calibration has no reference frame: give --corners"
OTHER_SIZE = (
    "the picture is {width}x{height}, the calibration's {cal_width}x{cal_height}: give --corners"
)
BOARD_NOT_THERE = "the board is not where the calibration has it: give --corners"
#: a camera's or video's frames of another size than the calibration's (`vision.tracker`)
FRAMES_OTHER_SIZE = (
    "frames are {width}x{height} but the calibration was made at {cal_width}x{cal_height}, "
    "and the board could not be found in them ({error}): set the camera to that size or "
    "recalibrate"
)
BOARD_MOVED = (
    "the board moved by about {squares:.1f} squares since the calibration: give --corners or "
    "recalibrate"
)

# ------------------------------------------------------------- placements, pictures, cameras
PLACEMENT_RANKS = "placement {placement!r} must have 8 ranks separated by '/'"
PLACEMENT_LETTER = "placement {placement!r}: bad letter {letter!r} on rank {rank}"
PLACEMENT_SQUARES = "placement {placement!r}: rank {rank} has {count} squares"
NO_IMAGE = "{path}: no such image file"
BAD_IMAGE = "{path}: not an image OpenCV can read"
NO_FRAME_RATE = "{path}: the video does not say its frame rate; give --fps"
NO_FOLDER = "{path}: no such folder"
NO_IMAGES = "{path}: no images ({suffixes})"
CAMERA_VALUE = "camera must be a device number or {picam!r}, not {value!r}"
PICAM_MISSING = (
    "--camera picam needs picamera2: on Raspberry Pi OS, sudo apt install python3-picamera2, "
    "and make the virtual environment with --system-site-packages (or use --camera 0 for a "
    "USB camera)"
)
PICAM_CANNOT_OPEN = "Pi camera: cannot open it ({reason}); is it connected and enabled?"
PICAM_NO_FRAME = "Pi camera: no frame ({reason})"
PICAM_DISCONNECTED = "Pi camera: no frame (disconnected?)"
NEEDS_OPENCV = (
    "the camera commands need {module} ({reason}); install the camera extra: "
    "pip install 'otb-arbiter[camera]'"
)
