"""Friends: requests by email, accept, decline, remove; limits by tier on both sides."""
