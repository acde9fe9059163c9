"""The use cases behind the routes, free of HTTP: commands (``GameCommands``), reads
(``GameQueries``) and the table stream's work (``HandArchive``), together in ``games.GameService``.
They take parsed commands (``values``), return what the caller may see, and raise domain errors
(``errors``). Importing the package loads nothing: each module is imported where it is used."""
