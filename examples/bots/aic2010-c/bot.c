/* A Tron bot for the Google AI Challenge 2010 protocol.
 *
 * Each turn it reads "W H" and H rows (' ' empty, '#' wall or trail, '1' itself, '2' its opponent) and
 * answers 1 (north), 2 (east), 3 (south) or 4 (west): the free move whose cell reaches the most free cells
 * (a flood fill), ties broken toward the cell with fewest free neighbours (hugging walls saves room). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 256

static char grid[MAX][MAX + 2];
static int width, height;
static const int dx[5] = {0, 0, 1, 0, -1}, dy[5] = {0, -1, 0, 1, 0};

static int is_free(int x, int y) {
    return x >= 0 && y >= 0 && x < width && y < height && grid[y][x] == ' ';
}

static int flood(int sx, int sy) {
    static int seen[MAX][MAX], stamp = 0, queue[MAX * MAX][2];
    int head = 0, tail = 0, count = 0;
    stamp++;
    queue[tail][0] = sx, queue[tail][1] = sy, tail++;
    seen[sy][sx] = stamp;
    while (head < tail) {
        int x = queue[head][0], y = queue[head][1];
        head++, count++;
        for (int d = 1; d <= 4; d++) {
            int nx = x + dx[d], ny = y + dy[d];
            if (is_free(nx, ny) && seen[ny][nx] != stamp) {
                seen[ny][nx] = stamp;
                queue[tail][0] = nx, queue[tail][1] = ny, tail++;
            }
        }
    }
    return count;
}

int main(void) {
    char line[MAX + 8];
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%d %d", &width, &height) != 2 || width > MAX || height > MAX) continue;
        int mx = 0, my = 0;
        for (int y = 0; y < height; y++) {
            if (!fgets(grid[y], sizeof grid[y], stdin)) return 0;
            for (int x = 0; x < width; x++) {
                if (grid[y][x] == '\n' || grid[y][x] == '\0') memset(grid[y] + x, ' ', width - x);
                if (grid[y][x] == '1') mx = x, my = y;
            }
        }
        int best = 1, best_room = -1, best_walls = -1;
        for (int d = 1; d <= 4; d++) {
            int x = mx + dx[d], y = my + dy[d];
            if (!is_free(x, y)) continue;
            int room = flood(x, y), walls = 0;
            for (int e = 1; e <= 4; e++) walls += !is_free(x + dx[e], y + dy[e]);
            if (room > best_room || (room == best_room && walls > best_walls)) {
                best = d, best_room = room, best_walls = walls;
            }
        }
        printf("%d\n", best);
        fflush(stdout);
    }
    return 0;
}
