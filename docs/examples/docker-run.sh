# one simulator on this machine, shared with the network: the API and every chain's port mapped one to one
docker run --rm --init \
  -p 4646:4646 -p 8545-8547:8545-8547 -p 8899-8900:8899-8900 -p 18443-18444:18443-18444 -p 8080:8080 \
  node:20-bookworm-slim \
  npx --yes intentsim start --host 0.0.0.0 --port 4646 \
    --chain-port 1=8545 --chain-port 8453=8546 --chain-port 42161=8547 \
    --chain-port 792703809=8899 --chain-port 8253038=18443 --chain-port 3586256=8080
