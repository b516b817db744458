"""The front door: the app's first page, what BPE is (the classic example playing beside
the words) and three ways in: explore a real model, train your own, teach a class."""
