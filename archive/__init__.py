"""An event's whole archive, an app built on ``tournament``: the versioned export (``export``), its published
JSON Schema (``schema.json``, a file checked against it by ``schema``), the import that reads it back into
another database (``load``, its problems said in words by ``problems``), and their entry points: the API
(``api``: ``export.json`` and ``archive-schema.json``), the admin's download and upload (``admin``) and
``manage.py import_event``."""
