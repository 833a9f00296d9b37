"""The table screen (:class:`kiosk.ui.scenes.table.scene.TableScene`), one job a module:
``geometry`` (where things are), ``animation`` (when they move), ``intents`` (what the
player asks), ``controls`` (the buttons), ``felt`` (the static layer), ``meters``,
``drawing`` (what changes) and ``compositor`` (dirty rectangles)."""
