"""A class measured: a teacher and N students over the websocket protocol."""
