"""The use cases behind the routes, free of HTTP: commands (``GameCommands``), reads
(``GameQueries``) and the table stream's work (``HandArchive``), together in
``facade.GameService``; each works on games as ``loaded.load_game`` reads them and tells the time
by a ``clock.Clock``. They take parsed commands (``values``), return what the caller may see, and
raise domain errors (``errors``). Importing the package loads nothing: each module is imported
where it is used."""
