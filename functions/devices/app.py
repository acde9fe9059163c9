"""PUT /me/devices/{device_id} (register a device's push token; a new token for the same device
updates its endpoint) and DELETE /me/devices/{device_id} (forget it)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import RegisterDeviceBody, check_device_id
from domino.api.request import caller
from domino.api.responses import no_content
from domino.api.wiring import devices

app = make_app(validation=False)


@app.put("/me/devices/<device_id>")
def register(device_id: str) -> Response[Any]:
    who = caller(app)  # 401 before 400
    check_device_id(device_id)
    devices().register(who, device_id, RegisterDeviceBody.parse(app.current_event.body))
    return no_content()


@app.delete("/me/devices/<device_id>")
def remove(device_id: str) -> Response[Any]:
    who = caller(app)  # 401 before 400
    devices().remove(who, check_device_id(device_id))
    return no_content()


handler = lambda_handler(app)
