# node:20-bookworm-slim made from this machine's own Node 20 (no registry here).
# Elsewhere `docker pull node:20-bookworm-slim` gives the image the other Dockerfiles start from.
# Context: a directory holding only the `node` binary (fencecheck images build makes it).
FROM debian:bookworm
COPY node /usr/local/bin/node
CMD ["node"]
