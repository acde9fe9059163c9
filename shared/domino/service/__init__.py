"""The use cases behind the routes: load, check, apply the engine, save, and shape the views."""
