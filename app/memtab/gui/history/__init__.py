"""History in the window: the hub joining it to the window (`hub`), the History panel
(`panel`), Runs… and what a revert did (`runs_dialog`), Recently deleted (`trash_dialog`).
"""
