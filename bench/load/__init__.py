"""Many sessions against one real server: a room of thirty, heavy neighbours, hostile links."""
