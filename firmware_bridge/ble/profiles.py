"""The GATT layouts of the Bluetooth LE boards (`eboard-protocols.md` 2.1, 4.1, 5).

A profile names the service a board advertises, the characteristics whose notifications carry
its bytes, the one commands are written to, the names it advertises and the MTU to ask for.
The bytes on those characteristics are the board's protocol, read by its codec as from a
serial port.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PROFILES", "BleProfile", "profile_for_advert"]

#: the suffix every Chessnut UUID shares (4.1)
_CHESSNUT = "-2877-41c3-b46e-cf057c562023"
#: the Nordic UART Service (5): DGTCentaurMods' Pegasus client and emulator use it
_NUS = "-b5a3-f393-e0a9-e50e24dcca9e"
#: Millennium ChessLink over BLE (2.1), the Microchip transparent UART service
_ISSC = "49535343-"


@dataclass(frozen=True)
class BleProfile:
    """How one kind of board is reached over Bluetooth LE.

    `protocol`: the registry's name for the board over BLE (`--board PROTOCOL:ADDRESS`).
    `service`: the service UUID it advertises. `notify`: characteristics whose notifications
    carry the board's bytes (all of them, in the order they come). `write`: where commands go.
    `names`: prefixes of the advertised name (case-insensitive; a board may be renamed, so the
    service counts too). `mtu`: the MTU to ask for; a notification longer than `mtu - 3`
    bytes is cut (Chessnut's 38-byte position needs more than the default 23).
    """

    protocol: str
    service: str
    notify: tuple[str, ...]
    write: str
    names: tuple[str, ...]
    mtu: int = 23

    def matches(self, name: str | None, services: tuple[str, ...]) -> bool:
        """Whether an advertisement (its name and service UUIDs) is this kind of board."""
        upper = (name or "").upper()
        if any(upper.startswith(prefix.upper()) for prefix in self.names):
            return True
        # the NUS is a generic UART: a NUS device is a Pegasus only if its name says so
        generic = self.service.endswith(_NUS)
        return not generic and self.service.lower() in (s.lower() for s in services)


PROFILES: dict[str, BleProfile] = {
    # 4.1: position notify 8262, command write 8272, replies notify 8273; MTU 500
    "chessnut-ble": BleProfile(
        protocol="chessnut-ble",
        service="1b7e8261" + _CHESSNUT,
        notify=("1b7e8262" + _CHESSNUT, "1b7e8273" + _CHESSNUT),
        write="1b7e8272" + _CHESSNUT,
        names=("Chessnut",),
        mtu=500,
    ),
    # 5: DGTCentaurMods `pegasus_client.py` (a client of real boards): RX 6e400002 is written,
    # TX 6e400003 notifies; the advertised name starts DGT_PEGASUS (emulators, other apps)
    "pegasus": BleProfile(
        protocol="pegasus",
        service="6e400001" + _NUS,
        notify=("6e400003" + _NUS,),
        write="6e400002" + _NUS,
        names=("DGT_PEGASUS",),
        mtu=247,
    ),
    # 2.1: the same bytes as over USB; the eONE sends them without the parity bit
    "millennium-ble": BleProfile(
        protocol="millennium-ble",
        service=_ISSC + "fe7d-4ae5-8fa9-9fafd205e455",
        notify=(_ISSC + "1e4d-4bd9-ba61-23c647249616",),
        write=_ISSC + "8841-43f4-a8d4-ecbe34729bb3",
        names=("MILLENNIUM CHESS",),
        mtu=247,
    ),
}


def profile_for_advert(name: str | None, services: tuple[str, ...]) -> BleProfile | None:
    """The profile an advertisement matches, if any."""
    for profile in PROFILES.values():
        if profile.matches(name, services):
            return profile
    return None
