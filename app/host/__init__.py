"""The table's host: remove a person or the spectators, hand the role over, close the table,
delete its history (and the operator's retention job), and the big-screen table display."""
