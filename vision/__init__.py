"""Camera vision: a camera above an ordinary board as a sensor of the event contract.

Per square it says only empty, white piece or black piece, and only in still scenes; the rules
core identifies the pieces from the previous position and the legal moves. Everything that
needs OpenCV imports it lazily (`vision.cvload.cv2`), so the rest of the project runs without it.
"""
