"""The MQTT client, made in one place: paho-mqtt's v2 API, imported only when a hall is used.

A client connects in the background and reconnects on its own (`connect_async` and paho's
network thread), so a board's game starts and goes on while the broker is away: the
journal keeps everything, and the station gets what it missed once the broker is back.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from arbiter.hall.errors import HallError
from arbiter.hall.topics import BrokerAddress
from rules.i18n import N_
from rules.library_reasons import reason_of

#: seconds between pings; a broker that hears nothing for 1.5 times this drops the client
#: and publishes its will ("offline")
KEEPALIVE_S = 15
#: messages in flight (sent, not yet acknowledged) at once: a resend of a long game is many
MAX_INFLIGHT = 200
#: reconnection back-off, seconds
RECONNECT_MIN_S = 0.2
RECONNECT_MAX_S = 5

_serial = itertools.count(1)


def make_client(
    name: str,
    address: BrokerAddress,
    *,
    will: tuple[str, bytes] | None = None,
) -> Any:
    """A paho client named `name` (made unique per process), with its will, not yet started.

    Raises:
        HallError: paho-mqtt is not installed.
    """
    try:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion
    except ImportError:
        raise HallError.of(
            N_(
                "the hall needs paho-mqtt (pip install paho-mqtt); it is one of the project's"
                " dependencies, so reinstalling the project brings it"
            )
        ) from None
    client_id = f"{name}-{os.getpid()}-{next(_serial)}"
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv311,
        clean_session=True,
    )
    client.max_inflight_messages_set(MAX_INFLIGHT)
    client.max_queued_messages_set(0)  # no limit: the journal is the bound
    client.reconnect_delay_set(min_delay=RECONNECT_MIN_S, max_delay=RECONNECT_MAX_S)  # type: ignore[arg-type]
    if address.username:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        # the system's CAs, or the hall's own CA (ARBITER_MQTT_CA: a PEM file)
        try:
            client.tls_set(ca_certs=os.environ.get("ARBITER_MQTT_CA") or None)
        except (OSError, ValueError) as exc:
            raise HallError.of(
                N_("broker {host}: TLS cannot be set up ({reason})"),
                host=address.host,
                reason=reason_of(exc),
            ) from None
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    return client


def start(client: Any, address: BrokerAddress, keepalive: int = KEEPALIVE_S) -> None:
    """Connect in the background and keep reconnecting (paho's network thread)."""
    try:
        client.connect_async(address.host, address.port, keepalive=keepalive)
    except (OSError, ValueError) as exc:
        raise HallError.of(
            N_("broker {host}:{port}: {reason}"),
            host=address.host,
            port=address.port,
            reason=reason_of(exc),
        ) from None
    client.loop_start()


def stop(client: Any) -> None:
    """Disconnect cleanly and stop the network thread."""
    client.disconnect()
    client.loop_stop()
