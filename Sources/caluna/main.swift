print("caluna")
