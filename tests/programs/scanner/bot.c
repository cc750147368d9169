/* Reads each aic2010 turn as the challenge's starter packages did: the size with scanf("%d %d\n"), whose
 * trailing newline also swallows any spaces that start the first row, then the rows character by character.
 * A row of the wrong length ends the program (exit status 3). It moves north, east, south or west: the
 * first that is free. */
#include <stdio.h>
#include <stdlib.h>

#define MAX 256

static char cell[MAX][MAX];

int main(void) {
    int width, height;
    while (scanf("%d %d\n", &width, &height) == 2) {
        int mx = -1, my = -1;
        for (int y = 0; y < height; y++) {
            int x = 0, c;
            while ((c = getchar()) != '\n' && c != EOF) {
                if (x >= width) break;
                cell[y][x] = (char)c;
                if (c == '1') mx = x, my = y;
                x++;
            }
            if (x != width) {
                fprintf(stderr, "row %d has %d cells, not %d\n", y, x, width);
                return 3;
            }
        }
        static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        int move = 1;
        for (int d = 0; d < 4; d++) {
            int x = mx + dx[d], y = my + dy[d];
            if (x >= 0 && y >= 0 && x < width && y < height && cell[y][x] == ' ') {
                move = d + 1;
                break;
            }
        }
        printf("%d\n", move);
        fflush(stdout);
    }
    return 0;
}
