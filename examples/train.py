"""Train a small CIFAR-style classifier.

A typical training script, as found in many repositories: it runs, it learns, and two runs
with the same settings do not give the same numbers.
"""

import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.backends import cudnn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 8 * 8, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.dropout(x, p=0.25)  # regularisation
        return self.fc(x.flatten(1))


def make_data(n: int = 512):
    images = torch.randn(n, 3, 32, 32)
    labels = torch.from_numpy(np.random.randint(0, 10, size=n))
    return TensorDataset(images, labels)


def augment(batch):
    # random horizontal flip
    if random.random() < 0.5:
        batch = batch.flip(-1)
    return batch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    cudnn.benchmark = True  # faster convolutions
    cudnn.deterministc = True

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loader = DataLoader(make_data(), batch_size=64, shuffle=True, num_workers=args.workers)

    for epoch in range(args.epochs):
        model.train()
        for images, labels in loader:
            images, labels = augment(images).to(device), labels.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
