# fencecheck's lock clients and delay proxy (its built code, dist/ and node_modules/),
# plus nftables (partitions inside a client's host container), the clock library, the docker CLI (the harness
# in a container), and Python 3 with the Python reference clients (clients/python) and their Debian libraries.
# Context: the repository (images/.dockerignore keeps it to what the client runs).
FROM node:20-bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nftables iproute2 procps gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
# The docker CLI alone (from Debian's docker.io, without its daemon): a harness running in this image
# (`--harness container`) drives the run's containers through the daemon's mounted socket.
RUN apt-get update \
 && cd /tmp && apt-get download docker.io \
 && dpkg-deb --fsys-tarfile docker.io_*.deb | tar -x -C / ./usr/bin/docker \
 && rm -f docker.io_*.deb && rm -rf /var/lib/apt/lists/* \
 && docker --version
# Python 3 and the libraries of the Python reference clients (clients/python), from Debian as on the host.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 python3-redis python3-kazoo python3-psycopg2 python3-etcd3 python3-tooz python3-etcd3gw python3-pymemcache \
 && rm -rf /var/lib/apt/lists/*
COPY native/fc-clock.c /usr/local/src/fc-clock.c
RUN gcc -O2 -shared -fPIC -Wall -Wextra -Werror -o /usr/local/lib/libfc-clock.so /usr/local/src/fc-clock.c
COPY package.json /opt/fencecheck/package.json
COPY node_modules /opt/fencecheck/node_modules
COPY dist/src /opt/fencecheck/dist/src
COPY dist/core /opt/fencecheck/dist/core
COPY dist/runtime /opt/fencecheck/dist/runtime
COPY clients/python /opt/fencecheck/clients/python
# The npm reference clients, with their node_modules when `npm run setup -- --node` installed them here.
COPY clients/node /opt/fencecheck/clients/node
# The report page's stylesheet and scripts (a harness in this image writes report.html).
COPY src/report/page /opt/fencecheck/src/report/page
LABEL org.fencecheck.image=client
CMD ["sleep", "infinity"]
