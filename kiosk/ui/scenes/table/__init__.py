"""The table screen (:class:`kiosk.ui.scenes.table.scene.TableScene`), one job a module:
``geometry`` (where things are), ``animation`` (when cards move), ``settle`` (the
settlement show: chips swept and paid, the win counted up, celebrations), ``intents``
(what the player asks), ``credit`` (the credit rules, said before they bite),
``controls`` (the buttons), ``chips`` (chip stacks), ``felt`` (the static layer),
``meters``, ``drawing`` (what changes) and ``compositor`` (dirty rectangles)."""
