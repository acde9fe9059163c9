from domino.local.server import main

raise SystemExit(main())
