package org.gridcache.door.select;

/**
 * The {@code k} best indices by score (higher is better) over one pass, by insertion into a small sorted array:
 * O(n·k) with k of a few, no allocation per element, so ranking 1,000 pools stays in the microseconds.
 */
public final class TopK {
    private final int[] index;
    private final double[] score;
    private int size;

    public TopK(int k) {
        index = new int[k];
        score = new double[k];
    }

    /** True when {@code i} entered (the threshold may have risen). */
    public boolean offer(int i, double s) {
        int k = index.length;
        if (k == 0 || (size == k && s <= score[k - 1])) {
            return false;
        }
        int at = size < k ? size++ : k - 1;
        while (at > 0 && score[at - 1] < s) {
            index[at] = index[at - 1];
            score[at] = score[at - 1];
            at--;
        }
        index[at] = i;
        score[at] = s;
        return true;
    }

    /** The score to beat to enter: the k-th best once there are k, else 0 (every positive score enters). */
    public double threshold() {
        return size == index.length && size > 0 ? score[size - 1] : 0;
    }

    public int size() {
        return size;
    }

    public int index(int rank) {
        return index[rank];
    }

    public double score(int rank) {
        return score[rank];
    }

    public boolean contains(int i) {
        for (int r = 0; r < size; r++) {
            if (index[r] == i) {
                return true;
            }
        }
        return false;
    }
}
