# An image that runs one simulator for a whole network (docs/shared-host.md): every server on
# every interface, each chain on a fixed port so that `docker run -p` and CI `ports:` can map it.
FROM node:20-bookworm-slim
RUN npm install --global intentsim
# the API, then each chain: its RPC on PORT, Solana's websocket and Bitcoin's Esplora on PORT+1
EXPOSE 4646 8545 8546 8547 8899 8900 18443 18444 8080
ENV INTENTSIM_CHAIN_PORTS=1=8545,8453=8546,42161=8547,792703809=8899,8253038=18443,3586256=8080
CMD ["intentsim", "start", "--host", "0.0.0.0", "--port", "4646"]
