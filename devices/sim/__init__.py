"""Protocol-exact device simulators on pseudo-terminals.

Each simulator owns both ends of ``os.openpty()``: it speaks the device's byte protocol on
the master side in a background thread, and publishes the slave's path as ``.port`` so the
real driver opens it with pyserial exactly as it would open ``/dev/ttyUSB0``.  Tests drive
scenarios (insert a note, jam the stacker, corrupt the next CRC...) through methods.
"""

from devices.sim.host import RecordingHost
from devices.sim.id003 import Bill, Id003Simulator, Ticket
from devices.sim.tcl import PrintedTicket, TclSimulator

__all__ = ["Bill", "Id003Simulator", "PrintedTicket", "RecordingHost", "TclSimulator", "Ticket"]
