"""Waddle Downtown's client side: text (:mod:`.text`), options (:mod:`.cli`) and terminal view (:mod:`.ui`)."""
