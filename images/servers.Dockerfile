# The servers of every backend from Debian packages, as the namespace provider runs them,
# plus nftables (partitions inside a host container) and the LD_PRELOAD clock library.
# Context: the repository (images/.dockerignore keeps it to native/fc-clock.c).
FROM debian:bookworm
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      redis-server redis-sentinel etcd-server zookeeper libslf4j-java postgresql pgbouncer memcached \
      nftables iproute2 util-linux procps gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
COPY native/fc-clock.c /usr/local/src/fc-clock.c
RUN gcc -O2 -shared -fPIC -Wall -Wextra -Werror -o /usr/local/lib/libfc-clock.so /usr/local/src/fc-clock.c
LABEL org.fencecheck.image=servers
CMD ["sleep", "infinity"]
