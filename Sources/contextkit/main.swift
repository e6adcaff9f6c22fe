print("contextkit")
