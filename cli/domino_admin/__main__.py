from domino_admin.app import main

main()
