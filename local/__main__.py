from local.server import main

raise SystemExit(main())
