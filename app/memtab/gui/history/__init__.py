"""History in the window: the hub joining it to the window (`hub`), the History panel
(`panel`), Runs… (`runs_dialog`, `revert`), Recently deleted (`trash_dialog`), shared
widgets (`widgets`).
"""
