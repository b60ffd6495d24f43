"""An event's whole archive: the versioned export (``export``), its published JSON Schema (``schema.json``)
and the import that reads it back into another database (``load``)."""
