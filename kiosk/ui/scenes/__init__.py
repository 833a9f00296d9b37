"""The cabinet's screens.  Each is a :class:`~kiosk.ui.scenes.base.Scene` that depends on
the :class:`kiosk.ui.host.SceneHost` protocol; :data:`kiosk.ui.app.SCENES` lists them."""
