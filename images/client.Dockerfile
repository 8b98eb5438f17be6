# fencecheck's lock clients and delay proxy (its built code, dist/ and node_modules/),
# plus nftables (partitions inside a client's host container) and the clock library.
# Context: the repository (images/.dockerignore keeps it to what the client runs).
FROM node:20-bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nftables iproute2 procps gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
COPY native/fc-clock.c /usr/local/src/fc-clock.c
RUN gcc -O2 -shared -fPIC -Wall -Wextra -Werror -o /usr/local/lib/libfc-clock.so /usr/local/src/fc-clock.c
COPY package.json /opt/fencecheck/package.json
COPY node_modules /opt/fencecheck/node_modules
COPY dist/src /opt/fencecheck/dist/src
COPY dist/workloads /opt/fencecheck/dist/workloads
COPY dist/checkers /opt/fencecheck/dist/checkers
LABEL org.fencecheck.image=client
CMD ["sleep", "infinity"]
